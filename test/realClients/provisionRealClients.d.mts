/** Entry points of the pinned CLIs in test/realClients/node_modules. */
export declare const CLIENT_ENTRIES: { claude: string; codex: string };

/** Installs what is missing (npm ci here; strace/iproute2 via apt-get on Debian as root) and returns the paths; throws saying what is missing. */
export declare function provisionRealClients(): {
  clients: { claude: string; codex: string };
  tools: { strace: string; ip: string; unshare: string };
};

/** Only strace, ip and unshare (apt-get on Debian as root when missing). */
export declare function provisionSystemTools(): { strace: string; ip: string; unshare: string };
