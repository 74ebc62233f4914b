import { sampleErrorReport } from '../agent/sample-tasks.testing';
import { bugKind, enclosingFunction, parseStacks, pickCandidates, shortFunctionName, spanAround, treeRelativePath } from './crash-frames';

describe('reading a sanitizer report', () => {
  it('splits it into the crash stack and the stacks that follow, each with its title', () => {
    const stacks = parseStacks(sampleErrorReport('4'));

    expect(stacks[0].title).toMatch(/^READ of size 4/);
    expect(stacks[0].frames[0]).toEqual({ index: 0, func: 'be_dict_add_entry', file: '/src/bencode/src/dict.c', line: 37 });
    expect(stacks[1].title).toBe('freed by thread T0 here:');
    expect(stacks[2].title).toBe('previously allocated by thread T0 here:');
    expect(bugKind(sampleErrorReport('4'))).toBe('heap-use-after-free');
  });

  it('picks project frames, skipping the sanitizer, libc, the driver and the harness, with the allocation site third', () => {
    const stacks = parseStacks(sampleErrorReport('1'));
    const everywhere = new Map(stacks.flatMap((stack) => stack.frames).map((frame) => [frame.file, treeRelativePath(frame.file)]));

    const picked = pickCandidates(stacks, everywhere);

    expect(picked.map((candidate) => candidate.frame.func)).toEqual(['tlv_cursor_be32', 'tlv_record_uint', 'tlv_doc_walk']);
    const withOrigin = parseStacks(sampleErrorReport('5'));
    const located = new Map(withOrigin.flatMap((stack) => stack.frames).map((frame) => [frame.file, treeRelativePath(frame.file)]));
    expect(pickCandidates(withOrigin, located).map((candidate) => candidate.frame.func)).toEqual(['rz_rle_decode_row', 'decode_rows', 'rz_image_create']);
  });

  it('falls back to the harness only when no other project frame is left, and drops files not in the tree', () => {
    const stacks = parseStacks(sampleErrorReport('1'));
    const harnessOnly = new Map([['/src/tlvkit/fuzz/tlv_fuzzer.c', 'tlvkit/fuzz/tlv_fuzzer.c']]);

    expect(pickCandidates(stacks, harnessOnly).map((candidate) => candidate.frame.func)).toEqual(['visit', 'LLVMFuzzerTestOneInput']);
    expect(pickCandidates(stacks, new Map())).toEqual([]);
  });

  it('names C++ frames by their short function name', () => {
    expect(shortFunctionName('ns::Parser::read(unsigned char const*, int)')).toBe('read');
    expect(treeRelativePath('/src/libxml2/parser.c')).toBe('libxml2/parser.c');
  });
});

describe('bounding the function around a frame', () => {
  const grep = ['12:}', '20:static int', '21:parse(const char *p,', '40:}', '44:int parse(const char *p, int n);'].join('\n');

  it('spans from the definition at or above the frame line to the next closing brace', () => {
    expect(enclosingFunction(grep, 'parse', 30)).toEqual({ start: 21, end: 40 });
    expect(enclosingFunction(grep, 'other', 30)).toBeUndefined();
  });

  it('keeps spans to at most 100 lines around the frame line', () => {
    expect(spanAround(30, { start: 21, end: 40 }, 100)).toEqual({ start: 21, end: 40 });
    expect(spanAround(300, { start: 10, end: 900 }, 100)).toEqual({ start: 250, end: 349 });
    expect(spanAround(15, { start: 10, end: 900 }, 100)).toEqual({ start: 10, end: 109 });
    expect(spanAround(5, undefined, 100)).toEqual({ start: 1, end: 15 });
  });
});
