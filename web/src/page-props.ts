/** What every page receives from the router: the path's named parts. */
export type PageProps = { params: Record<string, string> };
