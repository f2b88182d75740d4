export { Host, type HostOptions, type HostConnection } from './Host';
export { locateWorkspace, type WorkspaceLocation } from './paths';
export type { ClientSession } from './ClientSession';
