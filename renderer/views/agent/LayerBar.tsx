import { tokens } from '../../components/format';
import { layerShares } from '../../store/generations/generationsSelectors';
import type { GenerationDto } from '../../../engine/contract';

/** L0–L3 as one stacked bar against the budget; the part past the budget is marked. */
export function LayerBar({ generation }: { generation: GenerationDto }) {
  const shares = layerShares(generation);
  const total = shares.reduce((n, s) => n + s.tokens, 0);
  const budgetAt = Math.min(1, generation.budget / Math.max(generation.budget, total, 1));
  return (
    <figure className="layers" aria-label="Prompt layers">
      <div className="layers__bar" role="img" aria-label={shares.map((s) => `${s.layer} ${s.tokens} tokens`).join(', ') + `; budget ${generation.budget}`}>
        {shares.map((s) => (
          <span key={s.layer} className={`layers__seg layers__seg--${s.layer}`} style={{ width: `${s.share * 100}%` }} title={`${s.layer}: ${s.tokens} tokens, ${s.items} items`} />
        ))}
        <span className="layers__budget" style={{ left: `${budgetAt * 100}%` }} title={`budget ${generation.budget}`} />
      </div>
      <figcaption className="layers__legend">
        {shares.map((s) => (
          <span key={s.layer} className="layers__key">
            <i className={`layers__swatch layers__seg--${s.layer}`} /> {s.layer} {tokens(s.tokens)} · {s.layer === 'L0' && s.items === 0 ? 'role instructions' : s.layer === 'L3' && s.items === 0 ? 'input and status' : `${s.items} items`}
          </span>
        ))}
        <span className="layers__key layers__key--total">
          {tokens(total)} / {tokens(generation.budget)} budget
        </span>
      </figcaption>
    </figure>
  );
}
