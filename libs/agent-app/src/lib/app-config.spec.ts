import { Test } from '@nestjs/testing';
import { IsInt, Min } from 'class-validator';
import { AppConfig, publicUrl } from './app-config';
import { AppConfigModule } from './app-config.module';
import { validateEnvironment } from './validate-environment';

class TestConfig extends AppConfig {
  override PORT: number = 9009;

  @IsInt()
  @Min(1)
  COMMAND_TIMEOUT_S: number = 120;
}

const validate = validateEnvironment(TestConfig);

describe('validateEnvironment', () => {
  it('applies defaults and converts numbers', () => {
    const config = validate({ COMMAND_TIMEOUT_S: '30', HOST: '0.0.0.0' });

    expect(config).toBeInstanceOf(TestConfig);
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

describe('AppConfigModule', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('validates the environment once and provides that one object under its class and as AppConfig', async () => {
    process.env['COMMAND_TIMEOUT_S'] = '45';
    const module = await Test.createTestingModule({ imports: [AppConfigModule.forRoot(TestConfig, { ignoreEnvFile: true })] }).compile();

    const config = module.get(TestConfig);
    expect(config).toBeInstanceOf(TestConfig);
    expect(config.COMMAND_TIMEOUT_S).toBe(45);
    expect(module.get(AppConfig)).toBe(config);
  });

  it('refuses the boot with every bad variable named', async () => {
    process.env['COMMAND_TIMEOUT_S'] = 'soon';
    process.env['LOG_LEVEL'] = 'loud';

    await expect(Test.createTestingModule({ imports: [AppConfigModule.forRoot(TestConfig, { ignoreEnvFile: true })] }).compile()).rejects.toThrow(
      /invalid configuration:\n(?=[\s\S]*COMMAND_TIMEOUT_S="soon")(?=[\s\S]*LOG_LEVEL="loud")/,
    );
  });

  it('provides a configuration made elsewhere the same way', async () => {
    const made = Object.assign(new TestConfig(), { COMMAND_TIMEOUT_S: 7 });
    const module = await Test.createTestingModule({ imports: [AppConfigModule.of(made)] }).compile();

    expect(module.get(TestConfig)).toBe(made);
    expect(module.get(AppConfig)).toBe(made);
  });
});
