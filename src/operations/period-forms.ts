/**
 * The forms a `period` argument takes, in words, for error messages and API descriptions alike (the grammar itself
 * is in src/statements/fiscal-period.ts).
 */
const POINT_FORMS = [
  'Q<1-4>-<yyyy> (e.g. Q2-2024)',
  'FY<yyyy> (e.g. FY2024)',
  '"latest" (newest quarter, the default)',
  '"latest-fy" (newest fiscal year)',
];
const TTM_FORM = '"ttm" (trailing twelve months: the last four quarters summed, the newest balance sheet)';

const listed = (forms: readonly string[]) => `${forms.slice(0, -1).join(', ')} or ${forms[forms.length - 1]}`;

/** The forms of a `period`, short, as an error's `details.accepted` lists them. */
export const PERIOD_FORM_NAMES = ['Q<1-4>-<yyyy>', 'FY<yyyy>', 'latest', 'latest-fy', 'ttm'];

/** Every form of the statement and ratio fields' `period`. */
export const PERIOD_FORMS = listed([...POINT_FORMS, TTM_FORM]);

/** The forms of a `period` that names one reported period (everything but "ttm"). */
export const POINT_PERIOD_FORMS = listed(POINT_FORMS);
