import { CodedError } from './coded-error';

type ShelfErrorCode = 'SHELF_EMPTY' | 'SHELF_FULL';

class ShelfError extends CodedError<ShelfErrorCode> {}

/** A family with a member of its own, as a coded error may have. */
class LoudShelfError extends ShelfError {
  get shout(): string {
    return this.message.toUpperCase();
  }
}

describe('CodedError', () => {
  it('carries its code and its message', () => {
    const error = new ShelfError('SHELF_EMPTY', 'no book on the shelf');

    expect(error.code).toBe('SHELF_EMPTY');
    expect(error.message).toBe('no book on the shelf');
  });

  it('is named after the subclass that was thrown, not after the base', () => {
    expect(new ShelfError('SHELF_FULL', 'full').name).toBe('ShelfError');
    expect(new LoudShelfError('SHELF_FULL', 'full').name).toBe('LoudShelfError');
    expect(String(new ShelfError('SHELF_FULL', 'no room for one more'))).toBe('ShelfError: no room for one more');
  });

  it('keeps the cause it was given, and has none otherwise', () => {
    const cause = new Error('ENOSPC');

    expect(new ShelfError('SHELF_FULL', 'full', { cause }).cause).toBe(cause);
    expect('cause' in new ShelfError('SHELF_FULL', 'full')).toBe(false);
  });

  it('is an instance of its subclass, of CodedError and of Error, and not of a sibling family', () => {
    class LampError extends CodedError<'LAMP_OFF'> {}
    const error = new LoudShelfError('SHELF_EMPTY', 'empty');

    expect(error).toBeInstanceOf(LoudShelfError);
    expect(error).toBeInstanceOf(ShelfError);
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(LampError);
    expect(error.shout).toBe('EMPTY');
  });
});
