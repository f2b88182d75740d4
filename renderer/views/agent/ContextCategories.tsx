import type { GenerationDto } from '../../../engine/contract';
import { percent, tokens } from '../../components/format';
import { contextCategories } from '../../store/generations/contextCategories';

/** What the context is made of, like Claude Code's `/context`: categories with tokens, their share of the budget, and the free space. */
export function ContextCategories({ g }: { g: GenerationDto }) {
  const rows = contextCategories(g);
  return (
    <figure className="categories" aria-label="Context by category">
      <div className="categories__bar" role="img" aria-label={rows.map((r) => `${r.label} ${percent(r.share)}`).join(', ')}>
        {rows.map((r) => (
          <span key={r.id} className={`categories__seg categories__seg--${r.id}`} style={{ width: `${Math.min(1, r.share) * 100}%` }} title={`${r.label}: ${tokens(r.tokens)} tokens (${percent(r.share)})`} />
        ))}
      </div>
      <table className="table categories__table" aria-label="Context categories">
        <thead>
          <tr>
            <th scope="col">category</th>
            <th scope="col" className="num">tokens</th>
            <th scope="col" className="num">% of budget</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-category={r.id}>
              <td>
                <i className={`layers__swatch categories__seg--${r.id}`} /> {r.label}
              </td>
              <td className="num">{tokens(r.tokens)}</td>
              <td className="num">{percent(r.share)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
