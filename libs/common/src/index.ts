export { CodedError } from './lib/coded-error';
export { ProcessTable, type ProcessIdentity } from './lib/process-table';
