import { INestApplicationContext, Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { WebSocket, WebSocketServer } from 'ws';
import { parseClientFrame } from './ws-frames';

/**
 * Nest's ws adapter with our frame parser, and one change to its logging: every `error` a client
 * socket emits is the client's doing (ws raises them for protocol violations: an oversized frame,
 * invalid UTF-8, a bad opcode, an unmasked frame; network errors only close the socket), so it is
 * one warn line with the reason and no stack. Nest logs them at error level with a stack, which let
 * any client write error lines at will. Errors of the server itself stay errors.
 */
export class LiveWsAdapter extends WsAdapter {
  private readonly clients = new Logger('LiveSocket');

  constructor(app: INestApplicationContext) {
    super(app, { messageParser: parseClientFrame });
  }

  override bindErrorHandler(server: WebSocketServer): WebSocketServer {
    server.on('connection', (socket: WebSocket) => socket.on('error', (err: Error & { code?: string }) => this.clientError(err)));
    server.on('error', (err: Error) => this.logger.error(err));
    return server;
  }

  private clientError(err: Error & { code?: string }): void {
    this.clients.warn({ msg: 'WebSocket client broke the protocol; connection closed', code: err.code ?? 'unknown', reason: err.message });
  }
}
