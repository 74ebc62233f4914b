import { taskImage } from '@arvo-rca/common';

/** The image of bundled sample task `<id>`, as `npm run images` (tools/samples) builds it. */
export function sampleImageTag(id: string): string {
  return taskImage('sample', id);
}
