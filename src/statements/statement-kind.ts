/** The three financial statements, by the name the code, the data-quality checks and the SEC import use for each. */
export type StatementKind = 'income' | 'balance' | 'cashFlow';
