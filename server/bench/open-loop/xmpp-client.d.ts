// The part of xmpp.js (@xmpp/client, which ships no types) that the benchmark uses.
declare module '@xmpp/client' {
  interface Element {
    is(name: string): boolean;
    getChildText(name: string): string | null;
  }
  interface Client {
    start(): Promise<unknown>;
    stop(): Promise<unknown>;
    send(element: Element): Promise<void>;
    /** Writes raw XML on the stream. */
    write(data: string): Promise<void>;
    on(event: 'stanza', listener: (stanza: Element) => void): void;
    on(event: 'error', listener: (error: Error) => void): void;
  }
  type Authenticate = (credentials: { username: string; password: string }, mechanism: string) => Promise<void>;
  export function client(options: {
    service: string;
    domain: string;
    resource?: string;
    username?: string;
    password?: string;
    credentials?: (authenticate: Authenticate, mechanisms: string[]) => Promise<void>;
  }): Client;
  export function xml(name: string, attributes?: Record<string, string>, ...children: unknown[]): Element;
}
