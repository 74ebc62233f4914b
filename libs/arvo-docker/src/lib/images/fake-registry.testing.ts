import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

const BLOB_PAUSE_MS = 300;

/**
 * A minimal Docker registry (v2 API, one image of one layer) on a loopback port, which the engine
 * trusts without TLS. Each blob comes in two parts, 300 ms apart. `hang: true` makes it accept connections and never answer.
 */
export class FakeRegistry {
  private readonly server: Server;
  private readonly blobs = new Map<string, Buffer>();
  private manifest = Buffer.alloc(0);
  private manifestDigest = '';
  private readonly paused = new Set<NodeJS.Timeout>();

  constructor(private readonly hang = false) {
    this.server = createServer((request, response) => {
      if (this.hang) return;
      const url = request.url ?? '';
      if (url === '/v2/' || url === '/v2') return response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      if (/\/manifests\//.test(url)) {
        response.writeHead(200, {
          'Content-Type': 'application/vnd.docker.distribution.manifest.v2+json',
          'Docker-Content-Digest': this.manifestDigest,
          'Content-Length': this.manifest.length,
        });
        return response.end(request.method === 'HEAD' ? undefined : this.manifest);
      }
      const blob = this.blobs.get(/\/blobs\/(sha256:[0-9a-f]+)/.exec(url)?.[1] ?? '');
      if (blob) {
        response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': blob.length });
        if (request.method === 'HEAD') return response.end();
        // Half now, half a moment later: the engine's "Downloading" event (the one that carries a layer's
        // size) then comes apart from "Download complete", where dockerd would otherwise coalesce it away.
        const half = Math.ceil(blob.length / 2);
        response.write(blob.subarray(0, half));
        this.paused.add(setTimeout(() => response.end(blob.subarray(half)), BLOB_PAUSE_MS));
        return;
      }
      response.writeHead(404).end();
    });
    this.buildImage();
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.paused.forEach((timer) => clearTimeout(timer));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private buildImage(): void {
    const layerTar = tarOf('hello.txt', 'hello from the fake registry\n');
    const layer = gzipSync(layerTar);
    const config = Buffer.from(
      JSON.stringify({
        architecture: 'amd64',
        os: 'linux',
        config: { Cmd: ['/hello.txt'] },
        rootfs: { type: 'layers', diff_ids: [digest(layerTar)] },
      }),
    );
    this.blobs.set(digest(layer), layer);
    this.blobs.set(digest(config), config);
    this.manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
        config: { mediaType: 'application/vnd.docker.container.image.v1+json', size: config.length, digest: digest(config) },
        layers: [{ mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', size: layer.length, digest: digest(layer) }],
      }),
    );
    this.manifestDigest = digest(this.manifest);
  }
}

function digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

// A ustar archive of one regular file.
function tarOf(name: string, content: string): Buffer {
  const body = Buffer.from(content);
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const padding = Buffer.alloc((512 - (body.length % 512)) % 512);
  return Buffer.concat([header, body, padding, Buffer.alloc(1024)]);
}
