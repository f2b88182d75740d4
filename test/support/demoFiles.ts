import { readDemoWorkspace } from '../../engine/node/workspace/readDemoWorkspace';
import { demoDir } from './tempDir';

/** The demo's repository as shipped (resources/demo/workspace), for the demo generator's tests. */
export const demoFiles = readDemoWorkspace(demoDir);
