export { CodedError } from './lib/coded-error';
