export * from './dto';
export * from './engineDto';
export * from './memoryDto';
export * from './events';
export * from './commands';
export * from './errors';
export * from './channels';
export * from './wire';
export type * from './api';
