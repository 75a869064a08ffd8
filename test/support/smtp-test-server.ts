import { createServer, Server, Socket } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: { name: string; address: string };
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The session was encrypted (implicit TLS or STARTTLS) when the message was sent. */
  secure: boolean;
  /** The user that authenticated the session. */
  user: string | undefined;
}

export interface SmtpTestServer {
  port: number;
  user: string;
  pass: string;
  /** smtp://user:pass@127.0.0.1:port (or smtps://) */
  url: string;
  mails: ReceivedMail[];
  /** Messages the server refused at DATA, counted whether or not scripted. */
  refused: number;
  /** SMTP reply codes for the next messages, one each (e.g. 451 "try again later", 550 "no"). */
  script: number[];
  /** Every message refused with this reply code until cleared. */
  outage: number | undefined;
  /** Resolves with the next message received. */
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface SmtpTestServerOptions {
  /** `implicit`: TLS from the first byte (smtps://); `starttls`: offered after EHLO; `none`: not offered. */
  tls: 'implicit' | 'starttls' | 'none';
  key?: string;
  cert?: string;
}

/**
 * A real SMTP server (the `smtp-server` package) that requires the credentials it was started with,
 * parses every message it accepts (mailparser) and can refuse messages with any reply code.
 */
export async function startSmtpTestServer(options: SmtpTestServerOptions): Promise<SmtpTestServer> {
  const user = 'mailer';
  const pass = 'p@ss:w/rd';
  const waiting: Array<(mail: ReceivedMail) => void> = [];
  const state = { refused: 0, script: [] as number[], outage: undefined as number | undefined, mails: [] as ReceivedMail[] };
  const server = new SMTPServer({
    secure: options.tls === 'implicit',
    key: options.key,
    cert: options.cert,
    disabledCommands: options.tls === 'none' ? ['STARTTLS'] : [],
    // Without TLS the credentials cross in clear: allowed here only because the test says so.
    allowInsecureAuth: options.tls === 'none',
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) callback(null, { user });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const code = state.outage ?? state.script.shift();
        if (code !== undefined) {
          state.refused += 1;
          callback(Object.assign(new Error(code < 500 ? 'Try again later' : 'Message refused'), { responseCode: code }));
          return;
        }
        void simpleParser(Buffer.concat(chunks)).then((parsed) => {
          const mail: ReceivedMail = {
            from: { name: parsed.from?.value[0]?.name ?? '', address: parsed.from?.value[0]?.address ?? '' },
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            secure: session.secure,
            user: session.user as string | undefined,
          };
          state.mails.push(mail);
          waiting.shift()?.(mail);
          callback();
        }, callback);
      });
    },
  });
  // A client that gives up mid-handshake (an untrusted certificate) is an 'error' event, not a test failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const scheme = options.tls === 'implicit' ? 'smtps' : 'smtp';
  return {
    port,
    user,
    pass,
    url: `${scheme}://${encodeURIComponent(user)}:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    get mails() {
      return state.mails;
    },
    get refused() {
      return state.refused;
    },
    get script() {
      return state.script;
    },
    set script(value: number[]) {
      state.script = value;
    },
    get outage() {
      return state.outage;
    },
    set outage(value: number | undefined) {
      state.outage = value;
    },
    next: () => new Promise<ReceivedMail>((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP server that accepts connections and never says a word (an SMTP server that hangs). */
export async function startSilentServer(): Promise<{ port: number; connections: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    get connections() {
      return connections;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on which nothing listens (connections are refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
