import { dialectOf, defaultWasmPaths, FunctionLocator } from './function-locator';

// Each line's expected enclosing function follows the `//>` marker ('' outside any function).
const C_SOURCE = `#include <stdio.h>
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

const CPP_SOURCE = `#include <vector>
namespace codec {                                  //>
template <typename T>
int Reader<T>::next(int n) const                   //> next
{
  auto twice = [](int v) { return 2 * v; };        //> next
  return twice(n);                                 //> next
}
Reader<int>::~Reader()                             //> ~Reader
{
  buffer_.clear();                                 //> ~Reader
}
class Frame {
 public:
  size_t size() const { return bytes_.size(); }    //> size
  Frame &operator+=(const Frame &other)            //> operator+=
  {
    return *this;                                  //> operator+=
  }
 private:
  std::vector<unsigned char> bytes_;               //>
};
Frame::Frame(int n) : bytes_(n)                    //> Frame
{
  if (n < 0) throw n;                              //> Frame
}
}  // namespace codec
template <>
void dump<int>(const int &value) { print(value); } //> dump
`;

// A header that only the C++ grammar reads cleanly, and one that is plain C.
const CPP_HEADER = `namespace a {\nclass B {\n  int get() const {\n    return v_;\n  }\n  int v_;\n};\n}\n`;
const C_HEADER = `static inline int clamp(int v)\n{\n  return v < 0 ? 0 : v;\n}\n`;

function expectationsOf(source: string): Array<{ line: number; name: string }> {
  return source
    .split('\n')
    .map((text, index) => ({ line: index + 1, marker: /\/\/> ?([\w~+=]*)\s*$/.exec(text) }))
    .filter((entry) => entry.marker !== null)
    .map(({ line, marker }) => ({ line, name: marker?.[1] ?? '' }));
}
const expectations = expectationsOf(C_SOURCE);
const cppExpectations = expectationsOf(CPP_SOURCE);

describe('FunctionLocator', () => {
  let locator: FunctionLocator;
  beforeAll(async () => {
    locator = await FunctionLocator.create();
  });

  it.each(expectations)('names the C function enclosing line $line: "$name"', ({ line, name }) => {
    expect(locator.enclosingFunction(C_SOURCE, line, 'c')).toBe(name);
  });

  it.each(cppExpectations)('names the C++ function enclosing line $line, without class or namespace: "$name"', ({ line, name }) => {
    expect(locator.enclosingFunction(CPP_SOURCE, line, 'cpp')).toBe(name);
  });

  it('answers several lines from one parse, in order', () => {
    const lines = expectations.map((entry) => entry.line);
    expect(locator.enclosingFunctions(C_SOURCE, lines, 'c')).toEqual(expectations.map((entry) => entry.name));
  });

  it('reads a .h as C, and as C++ when only C++ parses it cleanly', () => {
    expect(locator.enclosingFunction(CPP_HEADER, 4, 'c-or-cpp')).toBe('get');
    expect(locator.enclosingFunction(CPP_HEADER, 4, 'c')).not.toBe('get');
    expect(locator.enclosingFunction(C_HEADER, 3, 'c-or-cpp')).toBe('clamp');
  });

  it('tells the dialect by the extension, and nothing for other languages', () => {
    expect(['x.c', 'x.H', 'x.cc', 'x.cpp', 'x.CXX', 'x.hpp', 'x.hh', 'x.rs', 'Makefile'].map(dialectOf)).toEqual([
      'c',
      'c-or-cpp',
      'cpp',
      'cpp',
      'cpp',
      'cpp',
      'cpp',
      undefined,
      undefined,
    ]);
  });

  it('finds the innermost definition when several nodes share the line', () => {
    expect(locator.enclosingFunction('int a(void) { return 1; } int b(void) { return 2; }', 1)).toBe('a');
    expect(locator.enclosingFunction('namespace ns {\nint inner(void) {\n  return 0;\n}\n}\n', 3)).toBe('inner');
  });

  it('names a C++ method by its own name in either grammar', () => {
    const method = 'void Parser::reset(int n)\n{\n  n = 0;\n}\n';
    expect([locator.enclosingFunction(method, 3, 'c'), locator.enclosingFunction(method, 3, 'cpp')]).toEqual(['reset', 'reset']);
  });

  it('gives no name outside functions, for lines past the end, and for unparsable text', () => {
    expect(locator.enclosingFunction('int x = 1;\n', 1)).toBe('');
    expect(locator.enclosingFunction('int f(void) { return 0; }\n', 40)).toBe('');
    expect(locator.enclosingFunction('@@@ ### !!!\n', 1)).toBe('');
  });

  it('names the function that holds every line of a span, and none for a span across two functions or outside', () => {
    // Lines 3-6 are find_slot; 7-10 pick_handler.
    const spans = [
      { start: 4, end: 5 },
      { start: 6, end: 7 },
      { start: 2, end: 3 },
      { start: 0, end: 1 },
    ];
    expect(locator.functionsAround(C_SOURCE, spans, 'c')).toEqual(['find_slot', '', '', '']);
  });

  it('works for locators created at the same time', async () => {
    const [one, two] = await Promise.all([FunctionLocator.create(), FunctionLocator.create()]);
    expect([one.enclosingFunction(C_SOURCE, 5), two.enclosingFunction(CPP_SOURCE, 6, 'cpp')]).toEqual(['find_slot', 'next']);
  });

  it('names the missing grammar when it cannot be found', async () => {
    const failure = FunctionLocator.create({ ...defaultWasmPaths(), cGrammar: '/nonexistent/tree-sitter-c.wasm' });
    await expect(failure).rejects.toThrow(/^cannot load the C grammar \/nonexistent\/tree-sitter-c\.wasm: ENOENT/);
    await expect(failure).rejects.toHaveProperty('code', 'PARSER_UNAVAILABLE');
    await expect(FunctionLocator.create({ ...defaultWasmPaths(), cppGrammar: '/nonexistent/tree-sitter-cpp.wasm' })).rejects.toThrow(
      /^cannot load the C\+\+ grammar/,
    );
  });
});
