// Nothing leaves the machine: the page loads only from its own origin, makes no request after it
// has loaded (Playwright's request events, while typing), and keeps working with the network cut.
import { launch, openPage, pageUrl, check } from "./browser.mjs";

const origin = new URL(pageUrl).origin;
const { context, close } = await launch();
try {
  const requests = [];
  context.on("request", (request) => requests.push(request.url()));
  const { page, errors } = await openPage(context);
  const foreign = requests.filter((url) => new URL(url).origin !== origin);
  check(foreign.length === 0, `the load requested other origins: ${foreign.join(", ")}`);
  console.log(`load: ${requests.length} requests, all to ${origin}`);

  const type = async (text) => {
    await page.fill("#input", text);
    return (await page.textContent("#href")) ?? "";
  };
  requests.length = 0;
  const typed = await type("HTTPS://EXAMPLE.com/a/../b?q#f");
  check(typed === "https://example.com/b?q#f", `typing showed ${JSON.stringify(typed)}`);
  await page.fill("#base", "https://example.org/dir/");
  const relative = await type("../x y");
  check(relative === "https://example.org/x%20y", `a relative input showed ${JSON.stringify(relative)}`);
  // Let any request the typing might have started be made before counting.
  await page.waitForTimeout(500);
  check(requests.length === 0, `requests after load: ${requests.join(", ")}`);
  console.log("after load: no request while typing");

  await context.setOffline(true);
  await page.fill("#base", "");
  const offline = await type("http://[::1]:80/%7e");
  check(offline === "http://[::1]/%7e", `offline, typing showed ${JSON.stringify(offline)}`);
  check(requests.length === 0, `requests with the network cut: ${requests.join(", ")}`);
  console.log("offline: the page still parses as one types");
  check(errors.length === 0, `the page reported errors: ${errors.join("; ")}`);
} finally {
  await close();
}
