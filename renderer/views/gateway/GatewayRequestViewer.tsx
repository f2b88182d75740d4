import { useMemo, useState, type ReactNode } from 'react';
import { useDispatch, useStrata } from '../../controller/StoreContext';
import { selectGatewayRequest } from '../../store/gateway/gatewaySelectors';
import { count, prettyJson } from './gatewayText';

/** Marks of `query` in `text` (case-insensitive), and how many there are. */
function marked(text: string, query: string): { nodes: ReactNode[]; hits: number } {
  if (query === '') return { nodes: [text], hits: 0 };
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  const nodes: ReactNode[] = [];
  let from = 0;
  let hits = 0;
  for (let at = lower.indexOf(q); at !== -1; at = lower.indexOf(q, at + q.length)) {
    nodes.push(text.slice(from, at), <mark key={at}>{text.slice(at, at + q.length)}</mark>);
    from = at + q.length;
    hits++;
  }
  nodes.push(text.slice(from));
  return { nodes, hits };
}

/**
 * A managed call's request as the client sent it and as it went upstream, pretty-printed when it
 * is JSON, with a search. The client's key is never among them: it travels in a header the host
 * does not keep.
 */
export function GatewayRequestViewer() {
  const request = useStrata(selectGatewayRequest);
  const dispatch = useDispatch();
  const [query, setQuery] = useState('');
  const original = useMemo(() => (request?.original != null ? prettyJson(request.original) : null), [request?.original]);
  const rewritten = useMemo(() => (request?.rewritten != null ? prettyJson(request.rewritten) : null), [request?.rewritten]);
  if (!request) return null;
  const loading = request.original === null && request.error === null;
  const a = original !== null ? marked(original, query) : null;
  const b = rewritten !== null ? marked(rewritten, query) : null;
  return (
    <section className="gw__request" aria-label={`Request of call ${request.callId}`}>
      <div className="gw__statusLine">
        <h3 className="gw__h">
          Original / Rewritten request <span className="muted">of call {request.callId}</span>
        </h3>
        <span className="gw__spacer" />
        <label className="gw__field">
          <span className="muted">Search</span>
          <input className="input" type="search" value={query} onChange={(e) => setQuery(e.target.value)} aria-label="Search the requests" />
        </label>
        {query !== '' && a && (
          <span className="muted" role="status">
            {count(a.hits)} in the original{b ? `, ${count(b.hits)} in the rewritten` : ''}
          </span>
        )}
        <button type="button" className="btn" onClick={() => dispatch({ type: 'gateway.requestClose' })}>
          Close
        </button>
      </div>
      {request.error && (
        <p className="gw__error" role="alert">
          {request.error}
        </p>
      )}
      {loading && <p className="muted">Loading the request…</p>}
      {a && (
        <div className="gw__requestPair">
          <div className="gw__requestOne">
            <h4 className="gw__h4">Original (as the client sent it)</h4>
            <pre className="gw__pre gw__pre--tall" tabIndex={0} aria-label="Original request">
              {a.nodes}
            </pre>
          </div>
          <div className="gw__requestOne">
            <h4 className="gw__h4">Rewritten (as it went upstream)</h4>
            {b ? (
              <pre className="gw__pre gw__pre--tall" tabIndex={0} aria-label="Rewritten request">
                {b.nodes}
              </pre>
            ) : (
              <p className="muted">The original went upstream unchanged.</p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
