import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * An http.Server's request listener from an async handler, for the stand-in servers tests start.
 * Node drops the promise a listener returns, so a handler that threw left its client waiting and
 * the error unhandled; here the error is printed and the connection cut, so the request fails at once.
 */
export function asyncRequestListener(handler: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>): RequestListener {
  return (req, res) => {
    handler(req, res).catch((error: unknown) => {
      console.error(`a stand-in server failed to answer ${req.method} ${req.url}:`, error);
      res.destroy();
    });
  };
}
