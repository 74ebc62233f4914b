import { IsInt, Min } from 'class-validator';
import { validateEnvironment } from './agent-config';
import { AgentEnvironment, publicUrl } from './agent-environment';

class TestEnvironment extends AgentEnvironment {
  override PORT: number = 9009;

  @IsInt()
  @Min(1)
  COMMAND_TIMEOUT_S: number = 120;
}

const validate = validateEnvironment(TestEnvironment);

describe('validateEnvironment', () => {
  it('applies defaults and converts numbers', () => {
    const config = validate({ COMMAND_TIMEOUT_S: '30', HOST: '0.0.0.0' });

    expect(config).toBeInstanceOf(TestEnvironment);
    expect(config).toMatchObject({ PORT: 9009, COMMAND_TIMEOUT_S: 30, HOST: '0.0.0.0', LOG_LEVEL: 'info' });
  });

  it('treats an empty variable as unset', () => {
    expect(validate({ PORT: '', CARD_URL: '' })).toMatchObject({ PORT: 9009, CARD_URL: undefined });
  });

  it('lists every bad variable in one error', () => {
    expect(() => validate({ PORT: 'ninety', LOG_LEVEL: 'loud', CARD_URL: 'not a url', COMMAND_TIMEOUT_S: '0' })).toThrow(
      /invalid configuration:\n(?=[\s\S]*PORT="ninety")(?=[\s\S]*LOG_LEVEL="loud")(?=[\s\S]*CARD_URL="not a url")(?=[\s\S]*COMMAND_TIMEOUT_S="0":)/,
    );
  });

  it('derives the public URL from the bind address unless a card URL is given', () => {
    expect(publicUrl(validate({ HOST: '0.0.0.0', PORT: '9100' }))).toBe('http://127.0.0.1:9100/');
    expect(publicUrl(validate({ CARD_URL: 'https://green.example.org/' }))).toBe('https://green.example.org/');
  });
});
