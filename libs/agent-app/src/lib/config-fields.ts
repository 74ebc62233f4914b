// The kinds of value a configuration variable holds, each validated one way in one place: the agents'
// configuration classes put one of these on each field. A message's `$property` is the variable's name.
import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, Min } from 'class-validator';

/** Whether the variable may be left unset (its field then undefined). */
type Presence = 'optional' | 'required';

const optional = (presence: Presence): PropertyDecorator[] => (presence === 'optional' ? [IsOptional()] : []);

/** A whole number of `min` or more: a count, seconds, bytes. */
export function WholeNumber(min: number, presence: Presence = 'required'): PropertyDecorator {
  return applyDecorators(...optional(presence), IsInt(), Min(min));
}

/** A number of `min` or more, fractions allowed. */
export function NumberFrom(min: number): PropertyDecorator {
  return applyDecorators(IsNumber(), Min(min));
}

/** Text as written: a path, a name, a key. */
export function Text(presence: Presence = 'required'): PropertyDecorator {
  return applyDecorators(...optional(presence), IsString());
}

/** An http(s) URL, a host without a top-level domain (`127.0.0.1`, `green`) allowed. */
export function HttpUrl(presence: Presence = 'required'): PropertyDecorator {
  return applyDecorators(...optional(presence), IsUrl({ require_tld: false, require_protocol: true }));
}

/** A size in bytes, `4g`, `512m`, `64k` or a plain count; the message gives `examples` (`4g or 512m`). */
export function ByteSize(examples: string, presence: Presence = 'required'): PropertyDecorator {
  return applyDecorators(...optional(presence), Matches(/^\d+[kmg]?$/i, { message: `$property must be a size such as ${examples}` }));
}

/** A flag written `on`/`off`, `true`/`false` or `1`/`0`, as a boolean: implicit conversion alone would make `off` true. */
export function OnOff(presence: Presence = 'required'): PropertyDecorator {
  return applyDecorators(
    ...optional(presence),
    Transform(({ obj, key }) => onOff((obj as Record<string, unknown>)[key])),
    IsBoolean({ message: '$property must be one of on, off, true, false, 1, 0' }),
  );
}

/** `on`/`true`/`1` and `off`/`false`/`0` as booleans; anything else stays as written, for the validation to name. */
function onOff(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  const word = String(value).trim().toLowerCase();
  if (['on', 'true', '1'].includes(word)) return true;
  if (['off', 'false', '0'].includes(word)) return false;
  return value;
}
