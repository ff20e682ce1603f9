/**
 * What another module reads with each row of a query, in the query's own statement: one round trip instead of two.
 * A company page reads its companies' statement histories this way, and one company the statements it is asked for.
 */
export interface ReadAhead<Row> {
  /**
   * One SQL expression on the row's alias, its values bound through `param` (which returns the placeholder, `$n`),
   * since the query owns the numbering of its parameters.
   */
  expression(param: (value: unknown) => string): string;
  /** Receives the expression's value for each row read, in order. */
  receive(row: Row, value: unknown): void;
}
