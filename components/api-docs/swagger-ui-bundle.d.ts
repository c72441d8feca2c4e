// swagger-ui-dist ships its browser bundle untyped; this page uses its one constructor.
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const SwaggerUIBundle: (options: { domNode: HTMLElement; url: string } & Record<string, unknown>) => unknown;
  export default SwaggerUIBundle;
}
