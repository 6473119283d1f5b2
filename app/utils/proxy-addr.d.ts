// proxy-addr (Express's own, behind `req.ip` and `trust proxy`) ships no types: the two functions FinFlow calls.
declare module 'proxy-addr' {
  import type { IncomingMessage } from 'node:http';

  /** May the address at hop `index` (0 = the socket's peer) be believed to forward truthfully? */
  type Trust = (address: string | undefined, index: number) => boolean;

  /** The client's address: the socket's, or the nearest untrusted one in X-Forwarded-For. */
  function proxyAddr(req: IncomingMessage, trust: Trust): string;
  namespace proxyAddr {
    /** A trust function from addresses, subnets and the names loopback, linklocal, uniquelocal; throws on anything else. */
    function compile(addresses: string[]): Trust;
  }
  export = proxyAddr;
}
