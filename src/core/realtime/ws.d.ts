/**
 * The `ws` package (the WebSocket implementation under @fastify/websocket)
 * ships no types. Declared loosely on purpose: @fastify/websocket's own
 * declarations then keep treating its sockets as untyped, as they do without
 * this file, and code here types the part it uses (see `RealtimeSocket`).
 */
declare module 'ws';
