import type { DataSource, EntityManager } from 'typeorm';
import { CAPS } from '../operations/catalog';
import { AppError, badUserInput } from '../shared/errors';
import type { Company } from './company.entity';
import {
  findCompanyById,
  findSectorSpelling,
  findTickerOrCikHolders,
  insertCompanyProfile,
  updateCompanyProfile,
  type CompanyProfileFields,
} from './company.repository';
import type { CreateCompanyInput, UpdateCompanyInput } from './company.types';

/**
 * Companies created and changed through the API. A ticker (any case) and a CIK belong to one company at most, so a
 * later SEC import of either finds the company it fills.
 */

const LIMITS = CAPS.companyProfile;
const TICKER = /^[A-Z0-9][A-Z0-9.-]*$/;
const CURRENCY = /^[A-Z]{3}$/;
export const DEFAULT_CURRENCY = 'USD';
export const DEFAULT_FISCAL_YEAR_END_MONTH = 12;

function text(field: string, value: string, maxLength: number): string {
  const trimmed = value.trim();
  if (!trimmed) throw badUserInput(`${field} must not be empty`, { field });
  if (trimmed.includes('\u0000')) throw badUserInput(`${field} must not contain NUL characters`, { field });
  if (trimmed.length > maxLength) throw badUserInput(`${field} must be at most ${maxLength} characters`, { field });
  return trimmed;
}

function ticker(value: string): string {
  const upper = text('ticker', value, LIMITS.maxTicker).toUpperCase();
  if (!TICKER.test(upper))
    throw badUserInput(`ticker must be letters, digits, "." or "-" (e.g. BRK.B, 2330), got "${value}"`, {
      field: 'ticker',
    });
  return upper;
}

function cik(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > LIMITS.maxCik)
    throw badUserInput(`cik must be a whole number from 1 to ${LIMITS.maxCik}, got ${value}`, { field: 'cik' });
  return value;
}

function currency(value: string): string {
  const upper = value.trim().toUpperCase();
  if (!CURRENCY.test(upper))
    throw badUserInput(`currency must be an ISO 4217 code of three letters (e.g. USD, EUR), got "${value}"`, {
      field: 'currency',
    });
  return upper;
}

function month(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 12)
    throw badUserInput(`fiscal_year_end_month must be a month from 1 to 12, got ${value}`, {
      field: 'fiscal_year_end_month',
    });
  return value;
}

/** A description, or null for an empty one (which removes it). */
function description(value: string): string | null {
  if (!value.trim()) return null;
  return text('description', value, LIMITS.maxDescription);
}

const given = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/** The fields of an update that were given, checked; BAD_USER_INPUT naming the first bad one. */
function changedFields(input: UpdateCompanyInput): Partial<CompanyProfileFields> {
  const fields: Partial<CompanyProfileFields> = {};
  if (given(input.name)) fields.name = text('name', input.name, LIMITS.maxName);
  if (given(input.ticker)) fields.ticker = ticker(input.ticker);
  if (given(input.sector)) fields.sector = text('sector', input.sector, LIMITS.maxSector);
  if (given(input.cik)) fields.cik = cik(input.cik);
  if (given(input.currency)) fields.currency = currency(input.currency);
  if (given(input.fiscalYearEndMonth)) fields.fiscalYearEnd = month(input.fiscalYearEndMonth);
  if (given(input.description)) fields.description = description(input.description);
  return fields;
}

/** CONFLICT when another company holds the ticker or the CIK, naming the field and that company. */
async function refuseTaken(
  manager: EntityManager,
  fields: Partial<CompanyProfileFields>,
  exceptId: number | null,
): Promise<void> {
  if (!fields.ticker && !fields.cik) return;
  const holders = await findTickerOrCikHolders(manager, fields.ticker ?? null, fields.cik ?? null, exceptId);
  for (const holder of holders) {
    const field = fields.ticker && holder.ticker.toUpperCase() === fields.ticker ? 'ticker' : 'cik';
    const value = field === 'ticker' ? fields.ticker : fields.cik;
    throw new AppError('CONFLICT', `${field} ${value} is already company ${holder.id} (${holder.name})`, {
      field,
      company_id: holder.id,
    });
  }
}

/** A unique index refused the write: another request took the ticker or CIK in between. */
function conflictOnRace(error: unknown): never {
  if ((error as { code?: string }).code === '23505') {
    const field = /cik/.test((error as { constraint?: string; detail?: string }).constraint ?? (error as Error).message)
      ? 'cik'
      : 'ticker';
    throw new AppError('CONFLICT', `${field} is already another company's`, { field });
  }
  throw error;
}

/** Writes a sector as an existing company has it ("energy" → "Energy"), so the sector filter and list stay one. */
async function withStoredSector<T extends Partial<CompanyProfileFields>>(
  manager: EntityManager,
  fields: T,
): Promise<T> {
  if (!fields.sector) return fields;
  return { ...fields, sector: (await findSectorSpelling(manager, fields.sector)) ?? fields.sector };
}

/** Creates a company; CONFLICT (409) when its ticker or CIK is another's, BAD_USER_INPUT naming a bad field. */
export async function createCompany(dataSource: DataSource, input: CreateCompanyInput): Promise<Company> {
  const fields: CompanyProfileFields = {
    name: text('name', input.name, LIMITS.maxName),
    ticker: ticker(input.ticker),
    sector: text('sector', input.sector, LIMITS.maxSector),
    cik: given(input.cik) ? cik(input.cik) : null,
    currency: given(input.currency) ? currency(input.currency) : DEFAULT_CURRENCY,
    fiscalYearEnd: given(input.fiscalYearEndMonth) ? month(input.fiscalYearEndMonth) : DEFAULT_FISCAL_YEAR_END_MONTH,
    description: given(input.description) ? description(input.description) : null,
  };
  const id = await dataSource
    .transaction(async (manager) => {
      await refuseTaken(manager, fields, null);
      return insertCompanyProfile(manager, await withStoredSector(manager, fields));
    })
    .catch(conflictOnRace);
  return (await findCompanyById(dataSource.manager, id)) as Company;
}

/** Changes the given fields of a company; NOT_FOUND for an unknown id, CONFLICT and BAD_USER_INPUT as on creation. */
export async function updateCompany(dataSource: DataSource, id: number, input: UpdateCompanyInput): Promise<Company> {
  const fields = changedFields(input);
  if (Object.keys(fields).length === 0) {
    throw badUserInput(
      'give at least one field to change: name, ticker, sector, cik, currency, fiscal_year_end_month or description',
    );
  }
  await dataSource
    .transaction(async (manager) => {
      if (!(await findCompanyById(manager, id))) throw new AppError('NOT_FOUND', `No company with id ${id}`);
      await refuseTaken(manager, fields, id);
      await updateCompanyProfile(manager, id, await withStoredSector(manager, fields));
    })
    .catch(conflictOnRace);
  return (await findCompanyById(dataSource.manager, id)) as Company;
}

/**
 * The company an SEC filer is: the one with its CIK, else the one with its ticker (any case), null when neither is
 * stored. CONFLICT when the CIK and the ticker are two different companies', or the ticker is a company's with
 * another CIK: filling either would merge two companies.
 */
export async function findFiler(
  manager: EntityManager,
  cik: number | null,
  ticker: string | null,
): Promise<{ id: number; ticker: string } | null> {
  const holders = await findTickerOrCikHolders(manager, ticker, cik, null);
  const byCik = cik === null ? undefined : holders.find((holder) => holder.cik === cik);
  const byTicker =
    ticker === null ? undefined : holders.find((holder) => holder.ticker.toUpperCase() === ticker.toUpperCase());
  const named = (holder: { id: number; name: string }) => `company ${holder.id} (${holder.name})`;
  if (byCik && byTicker && byCik.id !== byTicker.id) {
    throw new AppError(
      'CONFLICT',
      `CIK ${cik} is ${named(byCik)} but ticker ${ticker} is ${named(byTicker)}: change the ticker of one of them first`,
      { field: 'ticker', company_id: byTicker.id },
    );
  }
  if (!byCik && byTicker && byTicker.cik !== null && cik !== null) {
    throw new AppError('CONFLICT', `ticker ${ticker} is ${named(byTicker)}, whose CIK is ${byTicker.cik}, not ${cik}`, {
      field: 'cik',
      company_id: byTicker.id,
    });
  }
  const found = byCik ?? byTicker;
  return found ? { id: found.id, ticker: found.ticker } : null;
}
