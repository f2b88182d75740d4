import { useState } from 'react';
import { useStrata } from '../../controller/StoreContext';
import { tokens } from '../../components/format';
import { LAYERS, selectGenerationDetail, type LayerName } from '../../store/generations/generationsSelectors';
import { GenerationPicker } from './ContextInspector';

const LAYER_NOTES: Record<LayerName, string> = {
  L0: 'role instructions, byte-identical',
  L1: 'objective, pinned constraints, architecture memory',
  L2: 'findings, code, reports (append-only within a generation)',
  L3: 'volatile input and status (replaced every request)',
};

/** The composed prompt of the latest build, one layer at a time, with the static prefix hash. */
export function PromptView() {
  const detail = useStrata(selectGenerationDetail);
  const [layer, setLayer] = useState<LayerName>('L0');
  const g = detail.value;
  const prompt = g?.prompt ?? null;
  return (
    <section className="prompt" aria-label="Composed prompt">
      <div className="inspector__head">
        <GenerationPicker />
        {prompt && (
          <span className="prompt__hash" title={prompt.prefixHash}>
            static prefix (L0+L1) hash <code>{prompt.prefixHash.slice(0, 12)}…</code>
          </span>
        )}
      </div>
      {!g && <p className="empty">{detail.status === 'loading' ? 'Loading the generation…' : 'No generation yet.'}</p>}
      {g && !prompt && <p className="empty">The composed prompt is kept only for the agent’s current generation; pick “current” to see it.</p>}
      {g && prompt && (
        <>
          <div className="seg" role="radiogroup" aria-label="Prompt layer">
            {LAYERS.map((l) => (
              <button key={l} role="radio" aria-checked={layer === l} className={`seg__btn${layer === l ? ' seg__btn--on' : ''}`} onClick={() => setLayer(l)}>
                {l} <span className="muted">{tokens(g.layerTokens[l])}</span>
              </button>
            ))}
          </div>
          <p className="muted">
            {layer}: {LAYER_NOTES[layer]} · {layer === 'L0' || layer === 'L1' ? 'static: cached prefix' : 'dynamic'}
          </p>
          <pre className="prompt__text" aria-label={`Prompt layer ${layer}`} tabIndex={0}>
            {prompt[layer] || '(empty)'}
          </pre>
        </>
      )}
    </section>
  );
}
