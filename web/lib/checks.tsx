/** What an AI answer was checked against: figures checked, unsupported, and each flagged claim (compare and chat). */
import type { components } from '@financial-insights/sdk';

type Grounding = components['schemas']['Grounding'];
type Claim = components['schemas']['Claim'];

const VERDICTS: Record<string, string> = {
  UNSUPPORTED: 'no stored figure or passage supports it',
  WRONG_COMPANY: 'the figure belongs to another company',
  WRONG_PERIOD: 'the figure belongs to another period',
  WRONG_METRIC: 'the figure is another measure',
  WRONG_DIRECTION: 'the change goes the other way',
  CONTRADICTS_STATEMENT: 'the stored statement says otherwise',
};

export function Checks({ grounding, claims, model }: { grounding: Grounding; claims: Claim[]; model?: string }) {
  const flagged = claims.filter((c) => c.verdict !== 'SUPPORTED');
  return (
    <div className="checks small" data-checks>
      <p
        className="muted"
        data-checked={grounding.numbers_checked}
        data-unsupported={grounding.numbers_unsupported}
        data-flagged={grounding.claims_flagged}
      >
        {model ? `Written by ${model}; ` : ''}
        {grounding.numbers_checked} {grounding.numbers_checked === 1 ? 'figure' : 'figures'} checked against the
        statements, {grounding.numbers_unsupported} unsupported; {grounding.claims_checked}{' '}
        {grounding.claims_checked === 1 ? 'claim' : 'claims'} checked, {grounding.claims_flagged} flagged.
      </p>
      {grounding.unsupported.length > 0 && (
        <p className="error">Unsupported figures: {grounding.unsupported.join(', ')}</p>
      )}
      {flagged.length > 0 && (
        <ul className="flagged" aria-label="Flagged claims">
          {flagged.map((c, i) => (
            <li key={i} className="error" data-verdict={c.verdict}>
              “{c.text}”
              {c.ticker || c.period || c.metric
                ? ` (${[c.ticker, c.period, c.metric].filter(Boolean).join(', ')})`
                : ''}
              : {VERDICTS[c.verdict] ?? c.verdict.toLowerCase().replace(/_/g, ' ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
