/** Actions of the controls slice: a control used on one thing (by its key), its outcome, and dismissing it. */
export type ControlsAction =
  | { type: 'control.pending'; key: string; label: string }
  | { type: 'control.done'; key: string; label: string; message: string }
  | { type: 'control.failed'; key: string; label: string; message: string }
  | { type: 'control.dismiss'; key: string };
