import type { IncomingMessage } from 'node:http';
import { Logger, OnModuleDestroy } from '@nestjs/common';
import { OnGatewayConnection, OnGatewayDisconnect, OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { AccessTokenVerifier } from '../../common/auth/access-token-verifier';
import { bearerToken } from '../../common/auth/auth.decorators';
import { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { CommonError } from '../../common/errors/common.errors';
import { DomainError } from '../../common/errors/domain.error';
import { inTurns } from '../../common/in-turns';
import { AppConfig } from '../../config/app-config';
import { parseClientFrame } from './ws-frames';
import { ConnectionRegistry, SOCKETS_PER_TURN } from './connection-registry';
import { LiveConnection } from './live-connection';
import { RideSnapshotPort } from './ports/ride-snapshot.port';
import { errorFrame, pongFrame, rideEventFrame } from './realtime.events';
import { WsCloseCode } from './realtime.errors';

export const REALTIME_PATH = '/api/v1/ws/rides/live';

/**
 * The live channel. Nest guards do not run on a WebSocket upgrade, so the access token (`?token=`)
 * is checked here with the same verifier as HTTP; a refused socket is closed with 4401 before any
 * message. Frames are read by one listener per socket rather than @SubscribeMessage handlers so
 * that every frame, whatever its type, passes the rate limit and unknown types get an answer.
 */
@WebSocketGateway({ path: REALTIME_PATH })
export class RealtimeGateway implements OnGatewayInit<WebSocketServer>, OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(RealtimeGateway.name);
  private readonly connections = new WeakMap<WebSocket, LiveConnection>();
  private server: WebSocketServer | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly snapshots: RideSnapshotPort,
    private readonly registry: ConnectionRegistry,
    private readonly config: AppConfig,
  ) {}

  afterInit(server: WebSocketServer): void {
    this.server = server;
    // Read by ws at each upgrade; oversized frames close the socket with 1009 before reaching us.
    (server.options as { maxPayload?: number }).maxPayload = this.config.wsMaxPayloadBytes;
    this.heartbeat = setInterval(() => this.pingAll(), this.config.wsPingIntervalMs);
    this.heartbeat.unref();
  }

  handleConnection(socket: WebSocket, request: IncomingMessage): void {
    const limits = { maxMessagesPerSecond: this.config.wsMaxMessagesPerSecond, maxBufferedBytes: this.config.wsMaxBufferedBytes };
    const connection = new LiveConnection(socket, limits, request.socket);
    this.connections.set(socket, connection);
    socket.on('pong', () => (connection.alive = true));
    socket.on('message', (data: RawData) => this.onFrame(connection, data));
    void this.authenticate(connection, request);
  }

  handleDisconnect(socket: WebSocket): void {
    const connection = this.connections.get(socket);
    if (connection) this.registry.remove(connection);
  }

  /** Tell clients to reconnect elsewhere rather than just dropping them at shutdown. */
  onModuleDestroy(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const socket of this.server?.clients ?? []) {
      this.connections.get(socket as WebSocket)?.close(WsCloseCode.GOING_AWAY, 'Server shutting down');
    }
  }

  private async authenticate(connection: LiveConnection, request: IncomingMessage): Promise<void> {
    let user: AuthenticatedUser;
    try {
      const token = readToken(request);
      if (!token) throw new CommonError('UNAUTHENTICATED', 'Missing access token; connect with ?token=<access_token>');
      user = await this.verifier.verify(token);
    } catch (err) {
      if (err instanceof DomainError) {
        connection.close(WsCloseCode.UNAUTHORIZED, err.message);
      } else {
        // Not a verdict on the token (the database is unreachable, say): 4401 would make the app sign out.
        this.logger.error({ err, msg: 'Could not verify an access token' });
        connection.close(WsCloseCode.INTERNAL_ERROR, 'Could not verify the token; reconnect');
      }
      return;
    }
    if (connection.isClosing) return;
    connection.user = user;
    // Registered before the snapshot is read: an event published meanwhile is queued behind the snapshot, not lost.
    this.registry.add(connection);
    this.evictOldest(user.id);
    try {
      const snapshot = user.isRegistered ? await this.snapshots.getActiveRideSnapshot(user) : { ride: null };
      const rideId = snapshot.ride?.id ?? null;
      connection.open(rideEventFrame('ride_snapshot', rideId, snapshot.bids ? { ride: snapshot.ride, bids: snapshot.bids } : { ride: snapshot.ride }));
    } catch (err) {
      // A snapshot we cannot build must not be replaced by "no ride": the client retries instead.
      this.logger.error({ err, msg: 'Could not build the ride snapshot', user_id: user.id });
      this.registry.remove(connection);
      connection.close(WsCloseCode.INTERNAL_ERROR, 'Could not load your ride; reconnect');
    }
  }

  /**
   * At most WS_MAX_SOCKETS_PER_USER sockets per user on this instance (a user behind several
   * instances may hold that many on each): the newest wins, since a client that reconnects is the
   * one in use and its old socket is often a dead one not yet detected. The registry keeps a user's
   * sockets in the order they were authenticated.
   */
  private evictOldest(userId: number): void {
    const live = this.registry.connectionsOf(userId);
    let excess = live.size - this.config.wsMaxSocketsPerUser;
    if (excess <= 0) return;
    for (const oldest of [...live]) {
      if (excess-- <= 0) break;
      this.registry.remove(oldest);
      oldest.close(WsCloseCode.TOO_MANY_SOCKETS, `Too many live sockets: at most ${this.config.wsMaxSocketsPerUser} per user`);
    }
  }

  private onFrame(connection: LiveConnection, data: RawData): void {
    connection.alive = true;
    const admission = connection.admit();
    if (admission === 'drop') return;
    if (admission === 'close') {
      connection.close(WsCloseCode.POLICY_VIOLATION, 'Message rate limit exceeded');
      return;
    }
    if (admission === 'reject') {
      connection.send(errorFrame('rate_limited', `Too many messages: at most ${this.config.wsMaxMessagesPerSecond} per second`));
      return;
    }
    const frame = parseClientFrame(data);
    switch (frame.event) {
      case 'ping':
        connection.send(pongFrame());
        return;
      case 'invalid':
        connection.send(errorFrame('invalid_message', (frame.data as { reason: string }).reason));
        return;
      default:
        connection.send(errorFrame('unknown_message_type', `Unknown message type "${frame.event}"; the server accepts "ping"`));
    }
  }

  /** Protocol-level keep-alive: a socket that did not answer the previous ping is dropped. */
  private pingAll(): void {
    void inTurns([...(this.server?.clients ?? [])], SOCKETS_PER_TURN, (socket) => {
      const connection = this.connections.get(socket as WebSocket);
      if (!connection) return;
      if (!connection.alive) {
        connection.terminate();
        return;
      }
      connection.alive = false;
      if (socket.readyState === socket.OPEN) socket.ping();
    });
  }
}

/** The contract's `?token=`; an `Authorization: Bearer` header is accepted too for non-browser clients. */
function readToken(request: IncomingMessage): string | null {
  const fromQuery = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
  if (fromQuery) return fromQuery;
  return bearerToken(request.headers.authorization) ?? null;
}
