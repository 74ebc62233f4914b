export { runDirectoryName, taskLogFileName } from './lib/run-directory';
