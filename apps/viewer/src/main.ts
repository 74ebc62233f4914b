import { join } from 'node:path';
import { RunDirectories } from './app/run-directories';
import { parseViewerOptions } from './app/viewer-options';
import { ViewerServer } from './app/viewer-server';

// The page's files sit beside this module: src/public from the sources, public/ in the build.
const PAGE = join(__dirname, 'public');

async function main(): Promise<void> {
  const options = parseViewerOptions(process.argv.slice(2), process.env);
  const dirs = await RunDirectories.open(options.dirs);
  const server = await ViewerServer.start(dirs, PAGE, { host: options.host, port: options.port });
  const records = await dirs.records();
  console.log(`viewer: ${records.length} run record(s) in ${options.dirs.join(', ')}`);
  console.log(`viewer: serving ${server.url} (read-only; Ctrl-C stops it)`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: Error) => {
  console.error(`viewer: ${error.message}`);
  process.exit(1);
});
