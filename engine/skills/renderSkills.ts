import type { Skill } from './SkillFile';

/**
 * The text the selected skills add to a prompt, and the text a selection's budget is measured
 * on: each skill as `<skill name="…" version="…">`, its body verbatim, `</skill>`, in the order
 * given, separated by a blank line; '' for none. The tags keep one skill's headings from reading
 * as another's, and name plus version say exactly which guidance the model saw.
 */
export function renderSkills(selected: readonly Skill[]): string {
  return selected.map((s) => `<skill name="${s.name}" version="${s.version}">\n${s.body}\n</skill>`).join('\n\n');
}
