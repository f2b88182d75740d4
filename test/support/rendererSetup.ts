// Setup of the renderer project (jsdom): testing-library's `waitFor` and `findBy*` keep retrying
// for ASYNC_WAIT_MS instead of their default 1 s, which a loaded machine can miss.
import { configure } from '@testing-library/react';
import { ASYNC_WAIT_MS } from './testTimeouts.mjs';

configure({ asyncUtilTimeout: ASYNC_WAIT_MS });
