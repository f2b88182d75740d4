export { Host, type HostOptions, type HostConnection } from './Host';
export { locateWorkspace, type WorkspaceLocation } from '../node/workspace/paths';
export type { ClientSession } from './ClientSession';
