import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { parseResolveInfo, type ResolveTree } from 'graphql-parse-resolve-info';

/** Variable sets remembered per field of a document: a document is mostly sent with a handful of them. */
const MAX_VARIABLE_SETS = 50;
const trees = new WeakMap<FieldNode, Map<string, ResolveTree>>();

/**
 * The fields selected under the resolving field, of the type `typeName` (fragments and directives applied), as
 * graphql-parse-resolve-info reads them. Read once per field of a document and set of variables: parsing the
 * selection again on every request cost as much as the rest of the resolver. A parsed document is one object for as
 * long as its cache keeps it, so its field node identifies it. The trees are shared: callers only read them.
 */
export function selectedFields(info: GraphQLResolveInfo, typeName: string): ResolveTree[] {
  let byVariables = trees.get(info.fieldNodes[0]);
  if (!byVariables) trees.set(info.fieldNodes[0], (byVariables = new Map()));
  const key = JSON.stringify(info.variableValues);
  let tree = byVariables.get(key);
  if (!tree) {
    tree = parseResolveInfo(info) as ResolveTree;
    if (byVariables.size >= MAX_VARIABLE_SETS) byVariables.clear();
    byVariables.set(key, tree);
  }
  return Object.values(tree.fieldsByTypeName[typeName] ?? {});
}
