export { Host, type HostOptions, type HostConnection } from './Host';
export { locateWorkspace, defaultUserDataDir, type WorkspaceLocation } from '../node/workspace/paths';
export type { ClientSession } from './ClientSession';
