import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadApi } from './createPreloadApi';

contextBridge.exposeInMainWorld('strata', createPreloadApi(ipcRenderer));
