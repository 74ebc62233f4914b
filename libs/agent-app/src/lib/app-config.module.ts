import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import type { ClassConstructor } from 'class-transformer';
import { AppConfig } from './app-config';
import { validateEnvironment } from './validate-environment';

interface AppConfigOptions {
  /** Leave out the working directory's `.env` file (tests, which set what they need). */
  ignoreEnvFile?: boolean;
}

/**
 * An app's configuration, read once: at boot the environment (and a `.env` file) is validated into the
 * app's configuration class, and that one typed object is what every part of the app injects, under its
 * class and, for what every agent reads, under {@link AppConfig}. Global.
 */
@Module({})
export class AppConfigModule {
  static forRoot<T extends AppConfig>(type: ClassConstructor<T>, options: AppConfigOptions = {}): DynamicModule {
    const validate = validateEnvironment(type);
    // ConfigModule loads the environment and validates it as this call makes it (a refusal rejects the
    // import, and the boot with it): the object it validated is the one provided.
    let validated: T | undefined;
    const loaded = ConfigModule.forRoot({ cache: true, ignoreEnvFile: options.ignoreEnvFile, validate: (raw) => (validated = validate(raw)) });
    const provided = (): T => {
      if (!validated) throw new Error(`${type.name} was asked for before the environment was validated`);
      return validated;
    };
    return { ...AppConfigModule.provide(type, provided), imports: [loaded] };
  }

  /** A configuration made elsewhere (a test's, a tool's), provided as `forRoot` provides a validated one. */
  static of<T extends AppConfig>(config: T): DynamicModule {
    return AppConfigModule.provide(config.constructor as ClassConstructor<T>, () => config);
  }

  private static provide<T extends AppConfig>(type: ClassConstructor<T>, value: () => T): DynamicModule {
    const providers: Provider[] = [{ provide: type, useFactory: value }];
    if (type !== AppConfig) providers.push({ provide: AppConfig, useExisting: type });
    return { module: AppConfigModule, global: true, providers, exports: [type, AppConfig] };
  }
}
