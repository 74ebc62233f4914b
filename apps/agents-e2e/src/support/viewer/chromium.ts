import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: playwright-core drives it; no browser build is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A suite that needs Chromium: skipped loudly without it on a developer machine, failed under CI=true. */
export function describeWithChromium(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, body);
  } else if (process.env['CI'] === 'true') {
    describe(name, () => {
      it('has Chromium to drive', () => {
        throw new Error(`${CHROMIUM} is missing (apt-get install chromium), and CI=true forbids skipping browser tests`);
      });
    });
  } else {
    console.warn(`SKIPPED, ${CHROMIUM} is missing (apt-get install chromium): ${name}`);
    describe.skip(name, body);
  }
}

/** A CSS colour as Chromium computes it (`rgb(r, g, b)`), as numbers. */
export function rgbOf(colour: string): { r: number; g: number; b: number } {
  const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return { r, g, b };
}
