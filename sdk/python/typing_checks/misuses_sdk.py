"""Values the service would refuse: `mypy --strict` must report each marked line (test/sdk-python.test.ts checks)."""
from fis_sdk import Client


def misuse(client: Client) -> None:
    client.ai.summarize(1, summary_type="bogus")  # refused: summary type
    client.statements.income_history(1, type="yearly")  # refused: period type
    client.search("revenue", top_k="ten")  # refused: top_k
    client.search("revenue", mode="fuzzy")  # refused: search mode
    client.admin.keys.create("ci", role="root")  # refused: role
    for event in client.ai.chat([{"role": "user", "content": "Hi"}]):
        print(event.data.text)  # refused: not every event has text
