/** The first columns of a table of companies: the ticker linking to the company's page, the name and the sector. */
export function CompanyHeaders() {
  return (
    <>
      <th scope="col">Ticker</th>
      <th scope="col">Name</th>
      <th scope="col" className="hide-narrow">
        Sector
      </th>
    </>
  );
}

export function CompanyCells({ company }: { company: { ticker: string; name: string; sector: string } }) {
  return (
    <>
      <td>
        <a href={`/companies/${encodeURIComponent(company.ticker)}`}>{company.ticker}</a>
      </td>
      <td>{company.name}</td>
      <td className="hide-narrow">{company.sector}</td>
    </>
  );
}
