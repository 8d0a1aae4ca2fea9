module.exports = require('./_rest.js')["lint"];
