import 'reflect-metadata';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/**
 * Turns the raw environment into the app's typed configuration class, or throws one error that lists
 * every bad variable at once (`AppConfigModule` runs it once, at boot).
 */
export function validateEnvironment<T extends object>(schema: ClassConstructor<T>): (raw: Record<string, unknown>) => T {
  return (raw) => {
    const defined = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== ''));
    const config = plainToInstance(schema, defined, { enableImplicitConversion: true, exposeDefaultValues: true });
    const errors = validateSync(config, { forbidUnknownValues: true });
    if (errors.length > 0) {
      throw new Error(`invalid configuration:\n${errors.map((error) => describeError(error, defined)).join('\n')}`);
    }
    return config;
  };
}

// The value as the user wrote it, not as conversion left it (a bad number would show as NaN).
function describeError(error: ValidationError, raw: Record<string, unknown>): string {
  const reasons = Object.values(error.constraints ?? {}).join('; ');
  return `  ${error.property}=${JSON.stringify(raw[error.property] ?? error.value)}: ${reasons}`;
}
