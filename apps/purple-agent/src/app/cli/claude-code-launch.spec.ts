import { CLAUDE_CODE, ClaudeCodeLaunchError } from './claude-code';

describe('claude-code launch', () => {
  const input = { prompt: 'p', mcpUrl: 'http://127.0.0.1:1/mcp', mcpToken: 'secret-token', mcpName: 'task', home: '/h', workdir: '/w', packageDir: '/pkg' };

  it('passes the CLI only PATH, its key, base URL and its own HOME and TMPDIR, and keeps the MCP token out of argv', () => {
    const launch = CLAUDE_CODE.launch({ ...input, env: { PATH: '/bin', HOME: '/root', ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://b', OTHER: 'x' } });

    expect(launch.argv[0]).toBe('/pkg/cli-wrapper.cjs');
    expect(launch.argv.slice(-2)).toEqual(['--', 'p']);
    expect(launch.argv.join(' ')).not.toContain('secret-token');
    expect(Object.values(launch.files).join(' ')).toContain('Bearer secret-token');
    expect(launch.env).toMatchObject({ PATH: '/bin', HOME: '/h', TMPDIR: '/h/tmp', ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://b' });
    expect(launch.env).not.toHaveProperty('OTHER');
    expect(Object.keys(launch.files).every((path) => path.startsWith('/h/'))).toBe(true);
  });

  it('names the missing key', () => {
    expect(() => CLAUDE_CODE.launch({ ...input, env: { PATH: '/bin' } })).toThrow(ClaudeCodeLaunchError);
    expect(() => CLAUDE_CODE.launch({ ...input, env: { PATH: '/bin' } })).toThrow(/ANTHROPIC_API_KEY/);
  });
});
