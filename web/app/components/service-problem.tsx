import { failureText } from '../../lib/failure-text';
import type { Failure } from '../../lib/service';

/** A failure of the service said in the page itself, so it reads without JavaScript: its cause and when to retry. */
export function ServiceProblem({ failure }: { failure: Failure }) {
  return (
    <p role="alert" className="error" data-service-problem={failure.code}>
      {failureText(failure)}
    </p>
  );
}
