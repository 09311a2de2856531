/** A frame from either socket: `{ event, payload }`, or `{ type, payload }` for notification pushes. */
export interface SocketFrame {
  event?: string;
  type?: string;
  payload?: Record<string, unknown>;
}

export interface LiveSocket {
  send(message: Record<string, unknown>): void;
  close(): void;
}

/**
 * A socket to `/ws/<name>` that authenticates with its first message (the
 * token never goes into the URL), calls `onReady` after every successful
 * handshake (so subscriptions are renewed after a reconnect), and reconnects
 * with a growing delay until closed. Close code 4003 means the token was
 * refused or revoked: no reconnect, `onRefused` decides, told which token
 * the socket had sent.
 */
export function openSocket(
  name: 'notifications' | 'agent-tasks',
  token: () => string | null,
  handlers: {
    onFrame(frame: SocketFrame): void;
    onReady?(socket: LiveSocket): void;
    onRefused?(refusedToken: string): void;
  },
): LiveSocket {
  let ws: WebSocket | null = null;
  let closed = false;
  let delay = 500;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const live: LiveSocket = {
    send: (message) => {
      if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    },
    close: () => {
      closed = true;
      clearTimeout(timer);
      ws?.close(1000);
    },
  };
  const connect = () => {
    const current = token();
    if (closed || !current) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(`${scheme}://${location.host}/ws/${name}`);
    ws.onopen = () => ws?.send(JSON.stringify({ action: 'auth', token: current }));
    ws.onmessage = (message) => {
      let frame: SocketFrame;
      try {
        frame = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (frame.event === 'authenticated') {
        delay = 500;
        handlers.onReady?.(live);
        return;
      }
      handlers.onFrame(frame);
    };
    ws.onclose = (event) => {
      if (closed) return;
      if (event.code === 4003) {
        handlers.onRefused?.(current);
        return;
      }
      timer = setTimeout(connect, delay);
      delay = Math.min(delay * 2, 15_000);
    };
  };
  connect();
  return live;
}
