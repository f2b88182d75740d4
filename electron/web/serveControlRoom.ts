import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import type { Host } from '../../engine/host';
import type { GatewaySettings } from '../../engine/host/GatewayService';
import { openHost } from '../shared/openHost';
import { startWebHost, type WebHost } from './webHost';

/** The built renderer beside this module: out/renderer (the module is in out/main or its chunks). */
function rendererDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = join(dir, 'renderer');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    const inOut = join(dir, 'out', 'renderer');
    if (existsSync(join(inOut, 'index.html'))) return inOut;
    dir = dirname(dir);
  }
  throw new Error('The control room is not built (no out/renderer/index.html). Run `npm run build` or `npm start`.');
}

/**
 * Open the workspace and serve the control room until SIGINT/SIGTERM. Prints exactly one line
 * with the address (including the per-launch token) on stdout.
 */
export async function serveControlRoom(o: { workspace?: string | undefined; port?: number | undefined; sessionsDirs?: readonly string[]; gateway?: GatewaySettings }): Promise<{ web: WebHost; host: Host }> {
  const staticDir = rendererDir();
  const { host, location } = openHost({ workspace: o.workspace, sessionsDirs: o.sessionsDirs, ...(o.gateway ? { gateway: o.gateway } : {}) });
  let web: WebHost;
  try {
    web = await startWebHost({
      host,
      staticDir,
      port: o.port,
      onClientDropped: (d) => console.error(`strata: dropped a control-room connection that stopped reading its replies (${(d.bufferedBytes / 2 ** 20).toFixed(1)} MiB queued); it may reconnect.`),
    });
  } catch (err) {
    host.close();
    const e = err as NodeJS.ErrnoException;
    throw new Error(e.code === 'EADDRINUSE' ? `Port ${o.port} on 127.0.0.1 is in use; pick another with --port or omit it.` : e.message);
  }
  console.log(`Strata control room (${location.name} workspace, catalog ${location.catalogPath}): ${web.url}`);
  const stop = () => {
    void web.close().then(() => {
      host.close();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return { web, host };
}
