import { CFunctionLocator, defaultWasmPaths } from './c-function-locator';

// Each line's expected enclosing function follows the `//>` marker ('' outside any function).
const SOURCE = `#include <stdio.h>
static int counter = 0;                 //>
static int *find_slot(int key)           //> find_slot
{                                        //> find_slot
  return &counter;                       //> find_slot
}
int (*pick_handler(int kind))(void)      //> pick_handler
{
  return kind ? 0 : 0;                   //> pick_handler
}
int knr_sum(a, b)                        //> knr_sum
  int a;                                 //> knr_sum
  int b;
{
  return a + b;                          //> knr_sum
}
PHP_FUNCTION(strlen)                     //> strlen
{
  RETURN_LONG(0);                        //> strlen
}
static inline LIBAPI size_t api_len(const char *s) { return 0; } //> api_len
static void __attribute__((noinline)) gnu_fn(void)
{
#if defined(X)
  x();                                   //> gnu_fn
#endif
}
struct ops table = { .len = api_len };   //>
char **
split_words(const char *text,
            size_t *count)               //> split_words
{
  for (;;) {
    if (*text) { return 0; }             //> split_words
  }
}
`;

const expectations = SOURCE.split('\n')
  .map((text, index) => ({ line: index + 1, marker: /\/\/> ?(\w*)\s*$/.exec(text) }))
  .filter((entry) => entry.marker !== null)
  .map(({ line, marker }) => ({ line, name: marker?.[1] ?? '' }));

describe('CFunctionLocator', () => {
  let locator: CFunctionLocator;
  beforeAll(async () => {
    locator = await CFunctionLocator.create();
  });

  it.each(expectations)('names the function enclosing line $line: "$name"', ({ line, name }) => {
    expect(locator.enclosingFunction(SOURCE, line)).toBe(name);
  });

  it('answers several lines from one parse, in order', () => {
    const lines = expectations.map((entry) => entry.line);
    expect(locator.enclosingFunctions(SOURCE, lines)).toEqual(expectations.map((entry) => entry.name));
  });

  it('finds the innermost definition when several nodes share the line', () => {
    expect(locator.enclosingFunction('int a(void) { return 1; } int b(void) { return 2; }', 1)).toBe('a');
    expect(locator.enclosingFunction('namespace ns {\nint inner(void) {\n  return 0;\n}\n}\n', 3)).toBe('inner');
  });

  it('reads a C++ method with the C grammar by its own name, as a best effort', () => {
    expect(locator.enclosingFunction('void Parser::reset(int n)\n{\n  n = 0;\n}\n', 3)).toBe('reset');
  });

  it('gives no name outside functions, for lines past the end, and for unparsable text', () => {
    expect(locator.enclosingFunction('int x = 1;\n', 1)).toBe('');
    expect(locator.enclosingFunction('int f(void) { return 0; }\n', 40)).toBe('');
    expect(locator.enclosingFunction('@@@ ### !!!\n', 1)).toBe('');
  });

  it('works for locators created at the same time', async () => {
    const [one, two] = await Promise.all([CFunctionLocator.create(), CFunctionLocator.create()]);
    expect([one.enclosingFunction(SOURCE, 5), two.enclosingFunction(SOURCE, 9)]).toEqual(['find_slot', 'pick_handler']);
  });

  it('names the missing grammar when it cannot be found', async () => {
    const paths = { ...defaultWasmPaths(), cGrammar: '/nonexistent/tree-sitter-c.wasm' };
    const failure = CFunctionLocator.create(paths);
    await expect(failure).rejects.toThrow(/^cannot load the C grammar \/nonexistent\/tree-sitter-c\.wasm: ENOENT/);
    await expect(failure).rejects.toHaveProperty('code', 'PARSER_UNAVAILABLE');
  });
});
