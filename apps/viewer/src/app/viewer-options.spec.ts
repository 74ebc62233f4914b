import { parseViewerOptions } from './viewer-options';

describe('the viewer command line', () => {
  it('serves LOG_DIR on the loopback interface when given nothing', () => {
    expect(parseViewerOptions([], {})).toEqual({ host: '127.0.0.1', port: 9030, dirs: ['logs'] });
    expect(parseViewerOptions([], { LOG_DIR: '/runs', HOST: '0.0.0.0', PORT: '8080' })).toEqual({ host: '0.0.0.0', port: 8080, dirs: ['/runs'] });
  });

  it('takes run directories, host and port in any order', () => {
    expect(parseViewerOptions(['logs/log_a', '--port', '0', 'logs/log_b', '--host', '::1'], {})).toEqual({
      host: '::1',
      port: 0,
      dirs: ['logs/log_a', 'logs/log_b'],
    });
  });

  it('refuses an unknown option, a missing value and a bad port, with the usage', () => {
    expect(() => parseViewerOptions(['--watch'], {})).toThrow(/^unknown option --watch\nusage: npm run view/);
    expect(() => parseViewerOptions(['--port'], {})).toThrow('--port needs a value');
    expect(() => parseViewerOptions(['--port', 'http'], {})).toThrow('the port must be a number from 0 to 65535');
  });
});
