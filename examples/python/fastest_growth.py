"""The five companies of a sector with the fastest revenue growth over their latest fiscal year.

    pip install ./sdk/python
    FIS_BASE_URL=http://localhost:8080 FIS_API_KEY=... python3 fastest_growth.py "Information Technology"
"""
import sys

from fis_sdk import Client, NotFoundError


def main(sector: str) -> None:
    client = Client()  # FIS_BASE_URL and FIS_API_KEY from the environment
    growth = []
    for company in client.companies.all(sector=sector):
        try:
            ratios = client.statements.ratios(company.id, period="latest-fy")
        except NotFoundError:
            continue  # no full fiscal year yet: left out, not counted as zero
        if ratios.revenue_growth is not None:
            growth.append((ratios.revenue_growth, ratios.period, company))
    growth.sort(key=lambda row: row[0], reverse=True)
    print(f"Fastest revenue growth in {sector}:")
    for revenue_growth, period, company in growth[:5]:
        print(f"{company.ticker:<6} {revenue_growth * 100:6.1f}%  {period}  {company.name}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "Information Technology")
