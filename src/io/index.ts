export { parseObj } from "./obj.js";
