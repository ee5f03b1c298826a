// The image variations preview in the test page: its host stand-in first, then the page's script.
import "./variations-host";
import "../../../../src/webview/main-image-variations";
