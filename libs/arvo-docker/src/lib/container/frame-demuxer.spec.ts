import { FrameDemuxer, type StreamType } from './frame-demuxer';

function frame(type: 1 | 2, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

function demux(chunks: Buffer[]): [StreamType, string][] {
  const seen: [StreamType, string][] = [];
  const demuxer = new FrameDemuxer((type, payload) => {
    const last = seen[seen.length - 1];
    if (last?.[0] === type) last[1] += payload.toString();
    else seen.push([type, payload.toString()]);
  });
  for (const chunk of chunks) demuxer.push(chunk);
  return seen;
}

describe('FrameDemuxer', () => {
  const stream = Buffer.concat([frame(1, 'out one\n'), frame(2, 'err\n'), frame(1, ''), frame(1, 'out two\n')]);
  const expected: [StreamType, string][] = [
    ['stdout', 'out one\n'],
    ['stderr', 'err\n'],
    ['stdout', 'out two\n'],
  ];

  it('delivers stdout and stderr payloads in stream order', () => {
    expect(demux([stream])).toEqual(expected);
  });

  it('copes with headers and payloads split across chunks at any byte', () => {
    for (let cut = 1; cut < stream.length; cut++) {
      expect(demux([stream.subarray(0, cut), stream.subarray(cut)])).toEqual(expected);
    }
    expect(demux([...stream].map((byte) => Buffer.from([byte])))).toEqual(expected);
  });
});
