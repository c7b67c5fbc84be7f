// @ts-check
// A URL's Server-Sent Events read with fetch rather than EventSource, which cannot send the page's token:
// so a page is pushed its changes in token mode too, and polls only where the stream breaks.
import { withToken } from './common.js';
import { EventStreamParser } from './format.js';

/**
 * Follows `url` as an event stream: `handlers.open` once it answers, `handlers[name]` with each event
 * ({data}), `handlers.error` when it is refused, breaks or ends without being closed.
 * @param {string | URL} url
 * @param {Record<string, (event?: {name: string, data: string}) => void>} handlers
 * @returns {{close: () => void}}
 */
export function openEventStream(url, handlers) {
  const controller = new AbortController();
  const failed = () => {
    if (!controller.signal.aborted) handlers.error?.();
  };
  (async () => {
    const response = await fetch(url, {
      headers: withToken({ Accept: 'text/event-stream' }), cache: 'no-store', signal: controller.signal,
    });
    if (!response.ok || !response.body
        || !(response.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
      failed();
      return;
    }
    handlers.open?.();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new EventStreamParser();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(value)) handlers[event.name]?.(event);
    }
    failed();
  })().catch(failed);
  return { close: () => controller.abort() };
}
