import { Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';

/** An open response body: read it as a stream; it errors on resets and on silence longer than the idle timeout. */
export interface HttpBody {
  stream: Readable;
  /** The advertised Content-Length, when the server sent one. */
  length: number | undefined;
}

export interface HttpGetOptions {
  /** Longest silence allowed, while connecting, waiting for headers, or between two chunks of the body. */
  idleTimeoutMs: number;
  maxRedirects?: number;
}

/** The server answered with a status other than 2xx. */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(
    readonly status: number,
    readonly url: string,
  ) {
    super(`HTTP ${status} from ${url}`);
  }
}

/** The peer went silent for longer than the idle timeout. */
export class HttpIdleTimeoutError extends Error {
  override readonly name = 'HttpIdleTimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(url: string, idleTimeoutMs: number) {
    super(`no data from ${url} for ${idleTimeoutMs} ms`);
  }
}

/** Plain HTTP(S) GETs with redirects followed; the one class that talks to download servers. */
@Injectable()
export class HttpFetcher {
  async get(url: URL, options: HttpGetOptions): Promise<HttpBody> {
    let current = url;
    for (let redirects = options.maxRedirects ?? 5; ; redirects--) {
      const response = await this.open(current, options.idleTimeoutMs);
      const location = response.headers.location;
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && location && redirects > 0) {
        response.resume();
        current = new URL(location, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new HttpStatusError(status, current.href);
      }
      const length = Number(response.headers['content-length']);
      return { stream: response, length: Number.isSafeInteger(length) && length >= 0 ? length : undefined };
    }
  }

  private open(url: URL, idleTimeoutMs: number): Promise<IncomingMessage> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const options: RequestOptions = {
      headers: { 'user-agent': 'arvo-rca-green-agent', 'accept-encoding': 'identity' },
      // The socket's idle timer, set before connecting: it covers the connection, the wait for headers and every
      // gap in the body.
      timeout: idleTimeoutMs,
    };
    return new Promise((resolve, reject) => {
      let response: IncomingMessage | undefined;
      const req = send(url, options, (res) => {
        response = res;
        resolve(res);
      });
      req.on('timeout', () => {
        const error = new HttpIdleTimeoutError(url.href, idleTimeoutMs);
        if (response) response.destroy(error);
        req.destroy(error);
      });
      req.on('error', (error) => {
        if (response) response.destroy(error);
        else reject(error);
      });
      req.end();
    });
  }
}
